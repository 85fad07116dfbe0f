import SteppieCLI
