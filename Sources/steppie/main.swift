import SteppieCLI
import Foundation

exit(Steppie.main())
