export declare const NODE_MAJOR: number;
export declare function unsupportedNode(version: string): string | null;
export declare function requireSupportedNode(): void;
