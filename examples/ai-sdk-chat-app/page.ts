// The page: the AI SDK's own client pieces (DefaultChatTransport, readUIMessageStream), no framework.
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

const transport = new DefaultChatTransport<UIMessage>({ api: '/api/chat' });
const messages: UIMessage[] = [];
const log = document.querySelector<HTMLDivElement>('#log');
const form = document.querySelector<HTMLFormElement>('#form');
const input = document.querySelector<HTMLInputElement>('#input');

function textOf(message: UIMessage): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function line(role: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.className = role;
  log?.append(p);
  return p;
}

form?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input?.value.trim();
  if (!text || !input) return;
  input.value = '';
  const user: UIMessage = { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] };
  messages.push(user);
  line('user').textContent = `you: ${text}`;
  const reply = line('assistant');
  reply.dataset.state = 'streaming';
  const stream = await transport.sendMessages({ chatId: 'demo', messages, trigger: 'submit-message', messageId: undefined, abortSignal: undefined });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) {
    last = message;
    reply.textContent = textOf(message);
  }
  if (last) messages.push(last);
  reply.dataset.state = 'done';
});
