// What adaptation costs a call (npm run bench:models, part 4), in a fresh process:
//   node scripts/bench/models-cost.mjs <plain|adapted> <port> <runs>
// Makes runs + 2 rounds of 300 sequential small chat calls (the first two warm up) against
// scripts/bench/server.mjs's `json` scenario, as bench:instructions' "300 sequential
// requests" row does: `plain` to a model no rule names (bench-model), `adapted` to gpt-5,
// whose built-in rule renames max_tokens to max_completion_tokens on every call. Both send
// max_tokens: 512. Prints one JSON line: CPU ms per call per round, and what was adapted.
const [kind, port, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const { Gateway } = await import('unified-gateway');
let adapted = 0;
const client = new Gateway({ apiKey: 'bench-key', baseURL: `http://127.0.0.1:${port}/json/v1`, idleTimeout: 2_000, onAdapt: () => adapted++ });
const model = kind === 'adapted' ? 'gpt-5' : 'bench-model';
const messages = [{ role: 'user', content: 'benchmark' }];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const out = { kind, cpuMsPerCall: [] };
for (let i = 0; i < runs + 2; i++) {
  const c0 = cpu();
  for (let j = 0; j < 300; j++) await client.chat.completions.create({ model, messages, max_tokens: 512 });
  if (i > 1) out.cpuMsPerCall.push((cpu() - c0) / 300);
}
out.adapted = adapted;
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
