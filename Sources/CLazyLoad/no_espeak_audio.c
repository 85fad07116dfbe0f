/*
 * libespeak-ng 1.51 (Debian 12) creates a pcaudio audio device in espeak_Initialize whatever the
 * output mode, and pcaudio finds PulseAudio by opening and closing a playback stream on the
 * server: a round trip of several milliseconds before the first sample, one more client on the
 * device's sound server at every start, and a sink woken from suspend for nothing. Steppie only
 * ever takes samples from espeak-ng (AUDIO_OUTPUT_SYNCHRONOUS) and plays them on its own stream,
 * and espeak-ng touches its device only in the playback modes (every use is behind
 * ENOUTPUT_MODE_SPEAK_AUDIO), which later espeak-ng releases also check before creating it.
 *
 * The steppie executable exports this definition (Package.swift: --export-dynamic-symbol), so the
 * dynamic loader binds libespeak-ng's call to it instead of libpcaudio's: no device, no probe.
 * LazyLibraryTests checks the binding and that `say --out` connects no client to PulseAudio.
 */
struct audio_object;

__attribute__((visibility("default"), used))
struct audio_object *create_audio_device_object(const char *device, const char *application_name,
                                                const char *description) {
    (void)device;
    (void)application_name;
    (void)description;
    return 0;
}
