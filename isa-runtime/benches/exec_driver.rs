// Placeholder so the manifest parses while exec-core writes this benchmark.
fn main() {}
