import { hasProblem, runDoctor } from './doctor';

// `npm run doctor`: reads the variables as the server would (export them, or run with
// `env $(cat /etc/roost/roost.env) npm run doctor`), prints each finding, exits 1 on a problem.
const MARK = { ok: 'ok     ', warning: 'warning', problem: 'PROBLEM' } as const;

const findings = await runDoctor(process.env);
for (const f of findings) {
  console.log(`${MARK[f.level]}  ${f.text}`);
  if (f.fix) console.log(`         → ${f.fix}`);
}
const problems = findings.filter((f) => f.level === 'problem').length;
console.log(
  problems === 0
    ? '\nNo problem found: Roost can start with this configuration.'
    : `\n${problems} problem${problems === 1 ? '' : 's'} to fix before starting Roost.`,
);
process.exit(hasProblem(findings) ? 1 : 0);
