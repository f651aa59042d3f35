/**
 * A hook that long simulation loops call every few thousand steps, whatever progress their
 * experiment reports: the simulation process sets it to its owner check (src-sim/worker.ts), so that
 * a kernel of few long blocks, which reports progress seconds apart, still notices within about
 * 0.1 s that its owner is gone. Nothing by default; it never changes a result.
 */
let beat: () => void = () => {};

export function setHeartbeat(f: () => void): void {
  beat = f;
}

export function heartbeat(): void {
  beat();
}
