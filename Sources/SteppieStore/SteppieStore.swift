// Module SteppieStore: contents arrive with their issues.
