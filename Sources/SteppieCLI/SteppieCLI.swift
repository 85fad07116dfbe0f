// Module SteppieCLI: contents arrive with their issues.
