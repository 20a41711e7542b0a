//! The report's closing section: how to read the numbers.

pub(super) const READING: &str = "## Reading the numbers

- **The clock** is the CPU time of the thread running the VMs (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`; \
the wall clock where the platform has no such clock). Fires and the flush are timed on the client inside \
Luau; the decode is timed by blinkblox around delivering the frame's packet to the server world (the \
remote's listeners, the tool's decode and the bench's listener). Time the thread spends descheduled is not \
counted, so another busy process disturbs the figures less than it would a wall clock, though a shared \
machine still moves them (caches, frequency): compare within a table, and rerun before reading a gap of a \
tenth as a change.
- **The rows of a bench take turns, each turn in a fresh simulation.** The tools of one bench (or Rivals \
scenario) and mode run a turn of frames at a time in rotation (the run line above says how many) rather \
than one row after another, so a drift in a shared machine's speed over minutes falls on all the rows of \
that bench and mode instead of on whichever ran then. And a simulation can run slower than the next for its \
whole life (where its heap and native code landed): with a fresh one each turn, an unlucky simulation moves \
one turn's frames rather than a whole row, when a row has several turns. So the ratios between the tools \
of one bench and mode hold from run to run better than the absolute figures do.
- **Natively compiled** is what a Roblox server runs for `--!native` code and `@native` functions; \
**interpreted** is what most players' clients run. In native mode the embedded VM compiles every function \
of a module that marks none `@native`, and only the marked ones of a module that does, as Roblox does.
- **The inbound limits are raised for the run.** `benchmark/definitions/Definition.blink` sets \
MaxPacketSize, MaxEventsPerPacket, InboundBytesPerSecond and InboundBurst far above their defaults: a \
thousand events a frame is a flood that a live server would refuse. The checks still run, so their cost \
is in the decode figures.
- **The hand-written floor** (`benchmark/handwritten/`) is what a careful programmer writes by hand for \
the bench's events, with the same wire format and the checks a server needs (a pcall per packet, every \
count against its bound and the bytes left before allocating, every number a client sends finite, tested \
once an array by summing `value - value`). It has no functions, so CallResponse has no floor. It is the floor generated code is measured \
against, not a tool to prefer. It uses the same techniques as the generated code where a careful \
programmer would (32 booleans a `writeu32`; and, whichever this machine runs faster, a boolean array \
read by lookup rows or bit tests, written by `table.move` into a word or in place, Entities read by \
`string.byte` or `buffer.readu8` and written four bytes a `writeu32` or one a `writeu8`), so matching it \
is not matching a slow baseline.
- **Four things are done two ways.** Natively compiled, inline operations are fastest: a byte's eight \
bits tested, booleans tested where they are, struct fields read with `buffer.readu8` and written with \
`buffer.writeu8`. Interpreted, fewer instructions around builtin calls that do more work in C are: one of \
256 prepared boolean rows copied with `table.move`, 32 booleans moved into one table and tested at \
constant positions, a struct's run of u8 fields returned by one `string.byte` on a copy of the packet, \
and written four at a time merged with `bit32.replace` into one `buffer.writeu32`. Code cannot ask which \
mode runs it, so BlinkBlox's module times one such pair once, the first time it needs to know (in the untimed frames here), and keeps the \
answer: the native and interpreted columns each show that mode's choice.
- **The Random variants** fire 1001 seeded payloads in turn instead of one, with values that vary as a \
game's do. What they cost over the plain bench is set beside the work alone on them too: reading a thousand \
different payloads' tables a frame misses the processor's caches where one payload stays in them, and \
testing random booleans defeats its branch prediction where all-true ones never do, so much of the \
difference is the work's own and no encoding can remove it.
- **Module load** is a join's cost before the first event: each module's Luau compile, and its first \
`require` in a fresh world (the compile again, native code generation in native mode, and the module's \
body). Natively, the embedded VM compiles every function of a module whose functions are not marked \
`@native`, as Roblox does for a `--!native` script (the other tools' modules are such scripts), and only \
the marked functions of one that marks some: BlinkBlox marks what runs for every event, packet or frame, \
and leaves setup and error reporting interpreted.
- **Blink, zap and the libraries are as their authors ship them**, with only the limits that would stop a \
thousand events a frame lifted (`benchmark/tools.toml`'s patches); Blink's, zap's and NetRay-Compile's \
modules come from their own compilers on the same schema in their language (NetRay-Compile's with its \
`Validate = Basic` bounds and tag checks on: its default, `Off`, decodes whatever a client sends). Each library's adapter uses its most exact \
types; where it has none that carries a payload as fired (a map, a 64-bit float, an exact Vector3), the \
row fails and says which, and a library without request/response calls is listed under \"Not run\" for \
CallResponse.
- **A row takes at most a few seconds** of the VM thread's CPU time, its simulations' set-up included \
(the run line says how many; `--row-seconds` sets it): the fast tools time all their frames on the light benches and tens of them \
on the heavy ones, and a tool tens of times slower times a few, enough to show how far behind it is. A frame whose Luau runs for half a minute (an endless loop) is stopped and fails its \
row.
- **Plain Roblox remotes** pass each value as it is, one remote call per event; their Bytes are the \
runtime's estimate of the values' size, since there is no buffer to measure.
- **The server checks every event.** The events go from client to server, the direction BlinkBlox \
validates, and the bench's listener also compares the first events decoded with what was fired: a row \
whose values come out wrong fails rather than being timed.
- **How much a full run moves.** Two full runs with every tool, one after the other on a quiet 2-core \
Intel machine (14 minutes each): the medians of BlinkBlox, Blink, zap and the floor differed by 8% at the \
median cell and by more than 60% in one cell of ten, nearly all rows of few frames (the slow tools, and \
the heavy benches interpreted, which their budget allows one or two turns) where one simulation, or one \
choice between the two ways at set-up, was unlucky; which of BlinkBlox, Blink and zap was fastest changed \
in 3 of the 40 runtime cells. On a shared 2-core AMD machine about half as fast (16 to 20 minutes a run), \
Blink's, zap's and the floor's medians differed by 10% at the median cell and by more than 50% in one of \
ten, and the fastest of the three changed in 9 of 40 cells, each where BlinkBlox and Blink were within a \
fifth of each other. Rerun a bench alone with more time (`blinkblox bench NAME --tools a,b --row-seconds \
10`) before reading a gap of under a fifth between two tools.
- **A different machine gives different numbers.** The ratios between tools in one run are the useful part.
";
