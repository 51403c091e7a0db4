#!/usr/bin/env -S node --no-warnings
// Runs a wasm32-wasip1 test binary under Node's WASI: cargo gives this script the module's
// path and the test harness's arguments. The module sees the whole file system at the same
// paths (the tests read their golden files and assets by absolute path) and this process's
// environment, and its exit code is this process's.
import { readFile } from "node:fs/promises";
import { WASI } from "node:wasi";
import { argv, env, exit } from "node:process";

const [module, ...args] = argv.slice(2);
if (!module) {
    console.error("usage: wasi.mjs MODULE.wasm [ARGS...]");
    exit(2);
}
const wasi = new WASI({
    version: "preview1",
    args: [module, ...args],
    env,
    preopens: { "/": "/" },
    returnOnExit: true,
});
const compiled = await WebAssembly.compile(await readFile(module));
const instance = await WebAssembly.instantiate(compiled, wasi.getImportObject());
exit(wasi.start(instance));
