/** Types for scripts/build-node.mjs. */
export function buildNode(outDir?: string): Promise<void>;
