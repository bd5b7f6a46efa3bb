import type { Command } from '../command.js';

/** `unified-gateway models`: the model ids the gateway serves, one per line. */
export const models: Command = {
  name: 'models',
  summary: 'List the model ids the gateway serves',
  help: `Usage: unified-gateway models [--json]

List the model ids the gateway serves to this key, one per line.

Options:
  --json   Print the gateway's whole answer as JSON instead

Examples:
  unified-gateway models
  unified-gateway models | grep video
  unified-gateway models --json`,
  options: { json: { type: 'boolean' } },
  async run({ values, client, signal, io }) {
    const list = await client().models.list({ signal });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    io.stdout.write(list.data.map((m) => `${m.id}\n`).join(''));
  },
};
