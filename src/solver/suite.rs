//! Reference positions for the solver's tests and benchmark.
