fn main() -> std::process::ExitCode {
    isa_gen::cli::main()
}
