fn main() -> std::process::ExitCode {
    blinkblox::cli::main()
}
