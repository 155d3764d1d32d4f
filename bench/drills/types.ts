/** One figure a drill measured at full size, with what it is held against. */
export interface DrillFigure {
  drill: string;
  figure: string;
  value: string;
  /** What the issue asks of it, e.g. "0" or "within 60 s". */
  goal: string;
  met: boolean;
}

export interface Drill {
  name: string;
  run(progress: (line: string) => void): Promise<DrillFigure[]>;
}
