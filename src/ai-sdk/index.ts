export { createUnifiedGateway, unifiedGateway } from './provider.js';
export type { UnifiedGatewayProvider, UnifiedGatewaySettings } from './provider.js';
