-- wrk's revalidations of tiles: GET PATH with If-None-Match naming the ETag
-- that PATH's first answer carried, as a map's HTTP cache sends it
-- (TileBenchmark.swift writes the file):
--
--   wrk -s tiles-304.lua URL -- TAGS
--
-- TAGS holds `PATH "etag"` a line. Every answer must be 304: wrk counts a
-- 200 as a success, so this script counts the others and done() prints
-- `not 304: N` (kept out of tiles.lua: wrk then hands every tile's body
-- to Lua, a cost the uncached runs should not carry).
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  paths, tags = {}, {}
  for line in io.lines(args[1]) do
    local path, tag = line:match("^(%S+) (.+)$")
    if path then
      paths[#paths + 1] = path
      tags[#tags + 1] = tag
    end
  end
  math.randomseed(4300 + id)
  unexpected = 0
end

function request()
  local i = math.random(#paths)
  return wrk.format("GET", paths[i], { ["If-None-Match"] = tags[i] })
end

function response(status, headers, body)
  if status ~= 304 then unexpected = unexpected + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("unexpected") or 0) end
  io.write(string.format("not 304: %d\n", total))
end
