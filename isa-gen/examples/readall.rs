fn main() {
    for f in std::env::args().skip(1) {
        let bytes = std::fs::read(&f).unwrap();
        let t = std::time::Instant::now();
        let out = isa_gen::xml::read_spec(std::path::Path::new(&f), &bytes);
        let dt = t.elapsed();
        let isa = &out.file.isa;
        println!("{f}: {:?} enc={} ins={} df={} ot={} fg={} fsg={} diags={} fatal={} {:.1} MB/s",
            isa.architecture.name, isa.encodings.len(), isa.instructions.len(), isa.data_formats.len(),
            isa.operand_types.len(), isa.functional_groups.len(), isa.functional_subgroups.len(), out.diagnostics.len(), out.fatal,
            bytes.len() as f64 / dt.as_secs_f64() / 1e6);
        for d in out.diagnostics.iter().take(5) { println!("  {d}"); }
    }
}
