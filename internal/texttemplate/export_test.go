package template

// Printf is the templates' printf, for the tests.
var Printf = printf
