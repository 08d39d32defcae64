// Runs the firmware logic tests under the real MicroPython WebAssembly port.
// Usage: node firmware/tests/run_mpy.mjs [test_script.py]
// Copies firmware/*.py into the port's in-memory filesystem, then runs the script, whose last
// line is "N passed, N failed". Exit status 1 if any failed or the script raised.
import fs from "fs";
import path from "path";
import url from "url";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const fwDir = path.resolve(here, "..");
const script = path.resolve(process.argv[2] || path.join(here, "test_logic_mpy.py"));

await import("@micropython/micropython-webassembly-pyscript");
let out = "";
const dec = new TextDecoder();
const text = (t) => (typeof t === "string" ? t : dec.decode(t));
const mp = await globalThis.loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (t) => { out += text(t); process.stdout.write(t); },
  stderr: (t) => { process.stderr.write(t); },
  linebuffer: false,
});
mp.FS.mkdir("/fw");
for (const name of fs.readdirSync(fwDir)) {
  if (name.endsWith(".py") && name !== "main.py") {
    mp.FS.writeFile("/fw/" + name, fs.readFileSync(path.join(fwDir, name)));
  }
}
mp.runPython("import sys\nsys.path.insert(0, '/fw')\nprint('MicroPython', sys.implementation.name, sys.version)");
let code = 0;
try {
  mp.runPython(fs.readFileSync(script, "utf8").replace(/sys\.exit\(/g, "(lambda s: None)("));
} catch (e) {
  process.stderr.write(String(e.message || e) + "\n");
  code = 2;
}
const m = out.match(/(\d+) passed, (\d+) failed/);
if (!m) code = code || 2;
else if (m[2] !== "0") code = 1;
process.exit(code);
