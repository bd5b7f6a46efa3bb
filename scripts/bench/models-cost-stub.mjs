// Adaptation's cost without the network (docs/benchmarks.md, "What adaptation costs"): 2 warm-up rounds and
// <rounds> measured rounds of 300 sequential chat calls to <model> through a stub fetch. Counted as
// bench:instructions counts, run twice (rounds 1 and 4; a third of the difference is one round):
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null --smc-check=all-non-file node --single-threaded --predictable-gc-schedule scripts/bench/models-cost-stub.mjs gpt-5 4
import { Gateway } from 'unified-gateway';
const [model, roundsArg] = process.argv.slice(2);
const reply = JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const fetch = async () => new Response(reply, { headers: { 'content-type': 'application/json' } });
const client = new Gateway({ apiKey: 'k', baseURL: 'http://x.local/v1', fetch, onAdapt: () => {} });
const messages = [{ role: 'user', content: 'benchmark' }];
for (let r = 0; r < 2 + Number(roundsArg); r++) for (let i = 0; i < 300; i++) await client.chat.completions.create({ model, messages, max_tokens: 512 });
