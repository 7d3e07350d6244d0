import { type WallHouseCurve } from '../../contract/wallRanking';

const WIDTH = 100;
const HEIGHT = 28;

/**
 * A house's last hours of temperature as a small line, its target now as a dashed one: read
 * across a room as "steady", "climbing" or "off its target". Gaps where it reported nothing.
 */
export function HouseCurve({ curve }: { curve: WallHouseCurve | null }) {
  const values = curve?.temperature ?? [];
  const known = values.filter((v): v is number => v !== null);
  if (!curve || known.length === 0)
    return <span className="roost-wall__curve" aria-hidden="true" />;
  const all = curve.target === null ? known : [...known, curve.target];
  const low = Math.min(...all) - 0.5;
  const high = Math.max(...all) + 0.5;
  const x = (i: number) => (i / Math.max(1, values.length - 1)) * WIDTH;
  const y = (v: number) => HEIGHT - ((v - low) / (high - low)) * HEIGHT;
  // One polyline per run of readings, so a gap stays a gap.
  const runs: string[] = [];
  let run: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length > 0) runs.push(run.join(' '));
      run = [];
    } else run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (run.length > 0) runs.push(run.join(' '));
  return (
    <svg
      className="roost-wall__curve"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      data-testid="drill-curve"
      data-points={known.length}
    >
      {curve.target !== null && (
        <line
          className="roost-wall__curve-target"
          x1={0}
          x2={WIDTH}
          y1={y(curve.target)}
          y2={y(curve.target)}
        />
      )}
      {runs.map((points, i) =>
        points.includes(' ') ? (
          <polyline key={i} className="roost-wall__curve-line" points={points} />
        ) : (
          <circle
            key={i}
            className="roost-wall__curve-dot"
            cx={points.split(',')[0]}
            cy={points.split(',')[1]}
            r={1.5}
          />
        ),
      )}
    </svg>
  );
}
