// Module SteppieLocalization: contents arrive with their issues.
