// What a Converse decode carries from one part of the request to another while it reads it.

export interface Scope {
  /** Tool names by toolUseId, from the toolUse blocks read so far. */
  callNames: Map<string, string>;
  /** Set once any cachePoint block was read: the request then marks what is cached. */
  cachePoint: boolean;
  /** Whether the request declared a toolConfig (toolUse and toolResult blocks need one). */
  toolConfig: boolean;
}

export function newScope(toolConfig: boolean): Scope {
  return { callNames: new Map(), cachePoint: false, toolConfig };
}
