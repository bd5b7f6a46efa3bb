// Logging: logLevel 'debug' with your own logger shows every attempt, and here a failover from a main base that is down.
import { Gateway, type Logger } from 'unified-gateway';

// Any console-shaped object works (pino, winston, consola); this one adds the level and elapsed time.
const started = Date.now();
const line = (level: string) => (message: string) => console.log(`${String(Date.now() - started).padStart(4)} ms ${level.padEnd(5)} ${message}`);
const logger: Logger = { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug') };

const client = new Gateway({
  // Nothing listens on port 9 here: a stand-in for a main base that is down. The real one is the backup.
  baseURL: 'http://127.0.0.1:9/v1',
  backupBaseURL: process.env.GATEWAY_BASE_URL,
  logLevel: 'debug', // default: process.env.GATEWAY_LOG ?? 'warn'
  logger,
});

const { data } = await client.models.list();
console.log(`${data.length} models, served by the backup`);
// Within the cooldown the next call starts on the backup: no failed attempt this time.
await client.models.retrieve(process.env.GATEWAY_CHAT_MODEL ?? 'gpt-4o-mini');
