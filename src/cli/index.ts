// The `unified-gateway` command line (Node only); see docs/cli.md.
import { ExitCode, runCli } from './run-cli.js';

const controller = new AbortController();
// The first Ctrl-C aborts whatever is in flight (the command then exits with 130); a second
// one exits at once, for anything that does not listen to the signal.
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(ExitCode.interrupted);
  controller.abort(new Error('Interrupted (SIGINT)'));
});
// `unified-gateway models | head -1` closes stdout early: that is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(ExitCode.ok);
  throw error;
});

const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }, controller.signal);
// An interrupted request may leave sockets or timers behind: nothing more is worth waiting for.
if (code === ExitCode.interrupted) process.exit(code);
process.exitCode = code;
