// The clusters benchmark's peer: mapbox/supercluster 8.0.1 (and kdbush, its
// one dependency) under Node, driven exactly as carousel-bench drives our
// Clustering module. Neither library is part of this repository: point this
// script at checkouts of them (see BENCHMARKS.md).
//
//   node supercluster-peer.mjs --supercluster DIR --kdbush DIR \
//        --points POINTS.f64 --dump LEVELS.f64 --loads 5 \
//        --box SOUTH,WEST,NORTH,EAST --queries 200
//
// POINTS.f64: latitude, longitude pairs (little-endian float64), in list
// order. LEVELS.f64: for each zoom from minZoom to maxZoom + 1, the item
// count, then x, y, id, parent, count of each item of supercluster's level
// (its internal `trees[z].data`), then the box query's markers at that zoom
// (count, then each marker's cluster id or point index), all float64.
// stdout: one JSON object with the timings in milliseconds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

// supercluster imports the bare name 'kdbush': give both packages a
// node_modules folder of their own, in a temporary directory, for this run.
const modules = fs.mkdtempSync(path.join(os.tmpdir(), 'supercluster-peer-'));
function install(name, from) {
    const dir = path.join(modules, 'node_modules', name);
    fs.mkdirSync(dir, {recursive: true});
    const manifest = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8'));
    fs.copyFileSync(path.join(from, 'index.js'), path.join(dir, 'index.js'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name, version: manifest.version, type: 'module', main: 'index.js'}));
    return manifest.version;
}
const versions = {supercluster: install('supercluster', args.supercluster), kdbush: install('kdbush', args.kdbush)};
let Supercluster;
try {
    Supercluster = (await import(pathToFileURL(path.join(modules, 'node_modules', 'supercluster', 'index.js')))).default;
} finally {
    fs.rmSync(modules, {recursive: true, force: true});
}

const raw = fs.readFileSync(args.points);
const coordinates = new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
const points = [];
for (let i = 0; i < coordinates.length; i += 2) {
    points.push({type: 'Feature', properties: {index: i / 2}, geometry: {type: 'Point', coordinates: [coordinates[i + 1], coordinates[i]]}});
}

const loads = [];
let index;
for (let run = 0; run < Number(args.loads); run++) {
    const start = performance.now();
    index = new Supercluster().load(points);
    loads.push(performance.now() - start);
}

const {minZoom, maxZoom} = index.options;
const [south, west, north, east] = args.box.split(',').map(Number);
const bbox = [west, south, east, north];
const queries = {};
for (let z = minZoom; z <= maxZoom + 1; z++) {
    const times = [];
    for (let q = 0; q < Number(args.queries); q++) {
        const start = performance.now();
        index.getClusters(bbox, z);
        times.push(performance.now() - start);
    }
    queries[z] = times;
}

const out = [];
for (let z = minZoom; z <= maxZoom + 1; z++) {
    const data = index.trees[z].data;
    const stride = index.stride;
    out.push(data.length / stride);
    for (let k = 0; k < data.length; k += stride) out.push(data[k], data[k + 1], data[k + 3], data[k + 4], data[k + 5]);
    const markers = index.getClusters(bbox, z);
    out.push(markers.length);
    for (const m of markers) out.push(m.properties.cluster ? m.properties.cluster_id : m.properties.index);
}
fs.writeFileSync(args.dump, new Float64Array(out));
process.stdout.write(JSON.stringify({versions, node: process.version, loads, queries}) + '\n');
