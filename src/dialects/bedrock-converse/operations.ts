// The operation ids of the Converse routes, as the journal records them.

export const CONVERSE = 'bedrock.converse';
export const CONVERSE_STREAM = 'bedrock.converseStream';
