import { stringOption, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { modelCatalogDeclaration } from '../model-catalog-declaration.js';
import { checkOutPath, writeOut } from '../out-file.js';

/** `unified-gateway models`: the model ids the gateway serves, one per line, as JSON or as TypeScript types. */
export const models: Command = {
  name: 'models',
  summary: 'List the model ids the gateway serves (or write them as TypeScript types)',
  help: `Usage: unified-gateway models [--json | --typescript] [--out FILE]

List the model ids the gateway serves to this key, one per line.

Options:
  --json         Print the gateway's whole answer as JSON instead
  --typescript   Print a .d.ts declaring every id for unified-gateway's types: with it in a
                 project, every 'model' field autocompletes them (any other id still compiles)
  --out FILE     Write to FILE instead of stdout, then print the path written

Examples:
  unified-gateway models
  unified-gateway models | grep video
  unified-gateway models --json
  unified-gateway models --typescript --out src/gateway-models.d.ts`,
  options: { json: { type: 'boolean' }, typescript: { type: 'boolean' }, out: { type: 'string', short: 'o' } },
  async run({ values, client, signal, io }) {
    if (values.json && values.typescript) throw new UsageError('Options --json and --typescript cannot be used together', 'models');
    const out = stringOption(values, 'out');
    if (values.out !== undefined && out === undefined) throw new UsageError('Option --out needs a file name', 'models');
    if (out !== undefined) await checkOutPath(out, 'models');
    const gateway = client();
    const list = await gateway.models.list({ signal });
    const ids = list.data.map((m) => m.id);
    const text = values.json
      ? `${JSON.stringify(list, null, 2)}\n`
      : values.typescript
        ? modelCatalogDeclaration(ids, { baseURL: gateway.baseURL, generatedAt: new Date() })
        : ids.map((id) => `${id}\n`).join('');
    if (out === undefined) {
      io.stdout.write(text);
      return;
    }
    await writeOut(out, new TextEncoder().encode(text), signal);
    io.stdout.write(`${out}\n`);
  },
};
