//! What the embedded VM costs: a `buffer.writeu8` with and without Luau's safe environment,
//! and creating a world with the Roblox mock. Run with `cargo bench -p blinkblox-luau`.

use blinkblox_luau::{Mode, Simulation, World};

fn main() {
    buffer_writeu8_cost();
    world_creation_time();
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

fn buffer_writeu8_cost() {
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

fn world_creation_time() {
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
