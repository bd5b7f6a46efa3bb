export { createMockGateway } from './mock-gateway.js';
export type { MockGateway, MockGatewayOptions, MockRequestRecord } from './mock-gateway.js';
export { errorBody } from './wire.js';
export type { MockChatReply, MockToolCall } from './chat-script.js';
export type { MockFault, FaultScope } from './faults.js';
export type { MockCacheHints } from './prompt-cache.js';
export { defaultModels } from './catalog.js';
export type { MockModel, MockModelKind, MockReasoning } from './catalog.js';
export type { ServeOptions, Served } from './node-server.js';
