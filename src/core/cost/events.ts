import type { GatewayPricing } from '../gateway-info/gateway-info.js';
import type { CoreConfig } from '../types.js';
import type { Cost, CostEvent, CostState } from './cost.js';

/** The cost state of a client whose cost modules are loaded: it has one (CoreConfig.cost). */
export const costOf = (config: CoreConfig): CostState => config.cost as CostState;

/** `onCost`, never failing the call: a listener that throws is logged. */
export function tell(config: CoreConfig, event: CostEvent): void {
  const { onCost } = costOf(config).settings;
  if (!onCost) return;
  try {
    onCost(event);
  } catch (error) {
    config.fleet.settings.log('warn', `[unified-gateway] onCost threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A quota as a Cost: in USD unless the gateway counts in tokens. */
export function costIn(info: GatewayPricing, quota: number, source: Cost['source']): Cost {
  return { quota, usd: info.displayType === 'TOKENS' ? null : quota / info.quotaPerUnit, source };
}

