// Module SteppieFeedback: contents arrive with their issues.
