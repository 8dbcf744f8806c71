// Public API of src/resolvers: re-exports only.
export {};
