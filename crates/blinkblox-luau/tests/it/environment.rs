//! The safe environment stays on (so builtin fast calls such as `buffer.writeu8` are taken),
//! checked by behaviour rather than timing (what it costs: `cargo bench -p blinkblox-luau`).

use blinkblox_luau::{Mode, Simulation, World};

/// True when the world's globals are a "safe environment": a chunk's imports
/// (`math.abs`) are resolved when it loads and not looked up again, so a later
/// write to the global `math` is not seen. Builtin fast calls (`buffer.*`,
/// `bit32.*`, `math.*`) depend on the same flag.
fn safe_environment(world: &World) -> bool {
    world
        .exec("shared.probe = function() return math.abs end")
        .expect("probe");
    world.exec("math = { abs = 'shadow' }").expect("shadow");
    let shadowed: bool = world.eval("return shared.probe() == 'shadow'").expect("call probe");
    world.exec("math = nil").expect("restore");
    !shadowed
}

#[test]
fn every_world_keeps_the_safe_environment() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let sim = Simulation::new(mode, 2).expect("simulation");
        sim.server()
            .load_module("Net", "return { n = buffer.len(buffer.create(4)) }")
            .expect("module");
        for world in sim.worlds() {
            assert!(safe_environment(world), "{mode:?} {:?}", world.role());
        }
    }
}

#[test]
fn the_probe_detects_a_deoptimised_environment() {
    // getfenv marks the environment unsafe (what set_environment would also do):
    // the probe must notice, or the test above proves nothing.
    let sim = Simulation::new(Mode::Native, 0).expect("simulation");
    sim.server().exec("local _ = getfenv()").expect("getfenv");
    assert!(!safe_environment(sim.server()));
}
