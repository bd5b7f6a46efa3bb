// npm run test:ai7: the provider's tests (test/ai-sdk/) on Node 24 with `ai` 7, which needs
// Node 22 or later. The Node binary comes from the npm registry as in test-on-node.mjs
// (.tmp/node24); `ai@7` is installed into its own prefix (.tmp/ai7), and a vitest config
// written beside it points the tests' `ai` there. The provider itself still implements
// specification v3, which ai 7's resolvers accept: that is what this run proves.
// Usage: node scripts/test-ai-sdk-7.mjs [vitest args]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_MAJOR = '24';
const AI_RANGE = '7';
const root = fileURLToPath(new URL('..', import.meta.url));
const npm = (args) => execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--silent', ...args], { stdio: 'inherit', timeout: 300_000 });

const pkg = `node-${process.platform}-${process.arch}`;
const nodePrefix = join(root, '.tmp', `node${NODE_MAJOR}`);
const node = join(nodePrefix, 'node_modules', pkg, 'bin', 'node');
if (!existsSync(node)) npm(['--prefix', nodePrefix, `${pkg}@${NODE_MAJOR}`]);

const aiPrefix = join(root, '.tmp', 'ai7');
const aiPackage = join(aiPrefix, 'node_modules', 'ai', 'package.json');
const installed = existsSync(aiPackage) ? JSON.parse(readFileSync(aiPackage, 'utf8')).version : undefined;
if (!installed?.startsWith(`${AI_RANGE}.`)) {
  mkdirSync(aiPrefix, { recursive: true });
  writeFileSync(join(aiPrefix, 'package.json'), JSON.stringify({ private: true }));
  npm(['--prefix', aiPrefix, `ai@${AI_RANGE}`]);
}
const aiManifest = JSON.parse(readFileSync(aiPackage, 'utf8'));
const aiVersion = aiManifest.version;
const aiEntry = join(aiPrefix, 'node_modules', 'ai', aiManifest.exports['.'].import);

// Only `ai` is redirected: its own @ai-sdk/provider (4.x) comes with it, while the provider
// under test keeps the @ai-sdk/provider 3 it is built with.
const config = join(root, '.tmp', 'vitest.ai7.config.mjs');
writeFileSync(
  config,
  `import { defineConfig, mergeConfig } from 'vitest/config';
import base from ${JSON.stringify(join(root, 'vitest.config.ts'))};
export default mergeConfig(base, defineConfig({ root: ${JSON.stringify(root)}, resolve: { alias: [{ find: /^ai$/, replacement: ${JSON.stringify(`/@fs${aiEntry}`)} }] } }));
`,
);
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`running test/ai-sdk on Node ${version} with ai ${aiVersion}`);
const args = process.argv.slice(2);
const result = spawnSync(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config, '--project', 'unit', ...(args.length ? args : ['test/ai-sdk'])], { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
