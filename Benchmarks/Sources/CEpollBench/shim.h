// The centre benchmark's waiter watches its parked pulls' sockets with epoll, which Swift's Glibc
// module does not bring.
#include <sys/epoll.h>
