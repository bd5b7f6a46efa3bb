/** A model the gateway serves. */
export interface Model {
  /** Use this as the `model` field of requests. */
  id: string;
  object: 'model';
  /** Unix timestamp (seconds). */
  created: number;
  /** Vendor label. */
  owned_by: string;
}

/** GET /models result. */
export interface ModelList {
  object: 'list';
  data: Model[];
}
