/**
 * The S8 gate: every fake model call yields to the event loop; when armed, calls on `holdTurn`
 * wait until the harness releases them, so all runs are suspended mid-run while the heap is
 * measured.
 */
export class Gate {
  arrived = 0;
  private resolveArrived!: () => void;
  private resolveRelease!: () => void;
  /** Resolves once `expected` calls are held at `holdTurn`. */
  readonly allArrived: Promise<void>;
  private readonly released: Promise<void>;

  /**
   * @param holdTurn model call (1-based turn) at which runs are held; 0 = never hold.
   * @param expected number of held calls that resolves `allArrived`.
   */
  constructor(
    readonly holdTurn: number,
    readonly expected: number,
  ) {
    this.allArrived = new Promise((r) => {
      this.resolveArrived = r;
    });
    this.released = new Promise((r) => {
      this.resolveRelease = r;
    });
  }

  /** Lets every held call continue. */
  release(): void {
    this.resolveRelease();
  }

  /** Called by a fake model at the start of each call. */
  async pass(turn: number): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    if (turn !== this.holdTurn) return;
    this.arrived += 1;
    if (this.arrived === this.expected) this.resolveArrived();
    await this.released;
  }
}

/** A gate that only yields (used for warm-up runs). */
export const YIELD_ONLY = new Gate(0, 0);
