/** Domain states of spec section 3, as `state` and `stateText`. */
export const DomainState = {
  Unvalidated: 0,
  ConfigurationErrors: 1,
  Waiting: 2,
  Active: 3,
} as const;

const TEXTS = ['Unvalidated', 'Configuration Errors', 'Waiting for distribution to name servers', 'Active'];

export function stateText(state: number): string {
  return TEXTS[state] ?? 'Unvalidated';
}
