// Public API of src/schema: re-exports only.
export {};
