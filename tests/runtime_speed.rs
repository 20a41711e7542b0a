//! The safe environment stays on (so builtin fast calls such as `buffer.writeu8`
//! are taken), checked by behaviour rather than timing; plus a printed
//! measurement (`cargo test --test runtime_speed -- --nocapture`).

use blinkblox::runtime::{Mode, Simulation, World};

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

fn nanoseconds_per_write(world: &World) -> f64 {
    world
        .eval(
            r#"
            local data = buffer.create(1024)
            local rounds = 2000
            local best = math.huge
            for _ = 1, 3 do
                local start = os.clock()
                for _ = 1, rounds do
                    for j = 0, 1023 do
                        buffer.writeu8(data, j, j)
                    end
                end
                best = math.min(best, os.clock() - start)
            end
            assert(buffer.readu8(data, 1023) == 255)
            return best / (rounds * 1024) * 1e9
            "#,
        )
        .expect("measure")
}

#[test]
fn buffer_writeu8_cost_is_printed() {
    let mut lines = Vec::new();
    for mode in [Mode::Native, Mode::Interpreted] {
        let sim = Simulation::new(mode, 0).expect("simulation");
        let fast = nanoseconds_per_write(sim.server());
        let slow_sim = Simulation::new(mode, 0).expect("simulation");
        slow_sim.server().exec("local _ = getfenv()").expect("deoptimise");
        let slow = nanoseconds_per_write(slow_sim.server());
        lines.push(format!(
            "{:>11}: {fast:6.2} ns per buffer.writeu8 (safe env), {slow:6.2} ns without",
            mode.label()
        ));
        assert!(fast.is_finite() && slow.is_finite());
    }
    println!("{}", lines.join("\n"));
}

#[test]
fn world_creation_time_is_printed() {
    for mode in [Mode::Native, Mode::Interpreted] {
        let start = std::time::Instant::now();
        let rounds = 5;
        for _ in 0..rounds {
            let sim = Simulation::new(mode, 1).expect("simulation");
            assert_eq!(sim.worlds().count(), 2);
        }
        let per_world = start.elapsed().as_secs_f64() * 1000.0 / (rounds * 2) as f64;
        println!(
            "{:>11}: {per_world:.2} ms to create a world with the mock",
            mode.label()
        );
    }
}
