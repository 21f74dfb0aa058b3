// gguf_crosscheck.mjs: gpusizer's GGUF reader against @huggingface/gguf (the Hugging Face
// Hub's own parser) on the fixtures tests/write_fixtures.cpp writes: every tensor's name,
// ggml type id, shape and offset, the tensor data offset, the version and the metadata values.
//   node tests/gguf_crosscheck.mjs FIXTURE_DIR GPUSIZER_CLI
// Exit 77 (skipped) when node_modules lacks @huggingface/gguf (npm ci installs it).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [dir, cli] = process.argv.slice(2);
let gguf, GGMLQuantizationType;
try {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
  const resolved = createRequire(path.join(root, "package.json")).resolve("@huggingface/gguf");
  ({ gguf, GGMLQuantizationType } = await import(resolved));
} catch (e) {
  console.log(`skipped: @huggingface/gguf is not installed (npm ci): ${e.message}`);
  process.exit(77);
}

let failures = 0;
const check = (cond, what) => {
  if (!cond) {
    failures++;
    console.error(`MISMATCH ${what}`);
  }
};

const files = readdirSync(dir).filter((f) => f.endsWith(".gguf")).sort();
if (files.length === 0) {
  console.error(`no .gguf fixtures in ${dir}`);
  process.exit(1);
}
for (const f of files) {
  const file = path.join(dir, f);
  const theirs = await gguf(file, { allowLocalFile: true });
  const ours = JSON.parse(execFileSync(cli, ["inspect", file, "--json"], { encoding: "utf8", maxBuffer: 64 << 20 }));
  check(ours.version === theirs.metadata.version, `${f}: version ${ours.version} vs ${theirs.metadata.version}`);
  check(BigInt(ours.tensor_list.length) === BigInt(theirs.metadata.tensor_count), `${f}: tensor count`);
  check(BigInt(ours.data_offsets[0]) === theirs.tensorDataOffset, `${f}: data offset ${ours.data_offsets[0]} vs ${theirs.tensorDataOffset}`);
  theirs.tensorInfos.forEach((t, k) => {
    const o = ours.tensor_list[k];
    if (!o) return check(false, `${f}: tensor ${k} ${t.name} missing`);
    check(o.name === t.name, `${f}: tensor ${k} name ${o.name} vs ${t.name}`);
    check(o.type_id === Number(t.dtype), `${f}: ${t.name} type ${o.type_id} vs ${t.dtype}`);
    check(GGMLQuantizationType[t.dtype] === o.type, `${f}: ${t.name} type name ${o.type} vs ${GGMLQuantizationType[t.dtype]}`);
    check(o.shape.length === t.n_dims && o.shape.every((d, i) => BigInt(d) === t.shape[i]), `${f}: ${t.name} shape`);
    check(BigInt(o.offset) === t.offset, `${f}: ${t.name} offset ${o.offset} vs ${t.offset}`);
  });
  // Metadata: every scalar and string value, every array's length.
  for (const [key, value] of Object.entries(theirs.metadata)) {
    if (["version", "tensor_count", "kv_count"].includes(key)) continue;
    const mine = ours.metadata[key];
    if (Array.isArray(value)) check(mine && mine.count === value.length, `${f}: ${key} array length`);
    else if (typeof value === "bigint") check(BigInt(mine) === value, `${f}: ${key} = ${mine} vs ${value}`);
    else if (typeof value === "number") check(Math.abs(mine - value) <= 1e-6 * Math.abs(value), `${f}: ${key} = ${mine} vs ${value}`);
    else check(mine === value, `${f}: ${key} = ${JSON.stringify(mine)} vs ${JSON.stringify(value)}`);
  }
  check(Object.keys(ours.metadata).length === Number(theirs.metadata.kv_count), `${f}: metadata count`);
  console.log(`${f}: ${theirs.tensorInfos.length} tensors, ${Object.keys(ours.metadata).length} metadata keys, data at ${theirs.tensorDataOffset}: ${failures ? "MISMATCHES" : "agree"}`);
}
process.exit(failures ? 1 : 0);
