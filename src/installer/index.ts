// Public API of src/installer: re-exports only.
export {};
