// One Redis for the tests' "processes": the script the SDK sends runs in a real Lua VM (fengari,
// Lua 5.3; Redis runs 5.1, and the script uses nothing where they differ), with the hash commands
// it calls kept in a Map. Its clock can run apart from this machine's, and it can be taken away.
import { lauxlib, lua, lualib, to_luastring } from "fengari";

type Reply = string | number | null | Reply[];

export class LuaRedis {
  readonly hashes = new Map<string, Map<string, string>>();
  /** Redis's clock less this machine's, in ms. */
  clockAheadMs = 0;
  /** Scripts run (answered). */
  evals = 0;
  /** Away: each command refused at once, or never answered (ioredis queues commands while it reconnects). */
  away: "refused" | "silent" | undefined;

  async eval(script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<Reply> {
    if (this.away === "refused") throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
    if (this.away === "silent") return new Promise<never>(() => undefined);
    this.evals++;
    const L = lauxlib.luaL_newstate();
    lualib.luaL_openlibs(L);
    const table = (values: readonly unknown[]) => {
      lua.lua_createtable(L, values.length, 0);
      values.forEach((value, i) => {
        lua.lua_pushstring(L, to_luastring(String(value)));
        lua.lua_rawseti(L, -2, i + 1);
      });
    };
    table(args.slice(0, numberOfKeys));
    lua.lua_setglobal(L, to_luastring("KEYS"));
    table(args.slice(numberOfKeys));
    lua.lua_setglobal(L, to_luastring("ARGV"));
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, (state: unknown) => {
      const words = Array.from({ length: lua.lua_gettop(state) }, (_, i) => lua.lua_tojsstring(state, i + 1) as string);
      const reply = this.#command(words);
      // Redis to Lua: a missing value is false, an array a table.
      if (reply === null) lua.lua_pushboolean(state, false);
      else if (Array.isArray(reply)) table(reply);
      else if (typeof reply === "number") lua.lua_pushinteger(state, reply);
      else lua.lua_pushstring(state, to_luastring(reply));
      return 1;
    });
    lua.lua_setfield(L, -2, to_luastring("call"));
    lua.lua_setglobal(L, to_luastring("redis"));
    if (lauxlib.luaL_loadstring(L, to_luastring(script)) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1) as string);
    if (lua.lua_pcall(L, 0, 1, 0) !== lua.LUA_OK) throw new Error(lua.lua_tojsstring(L, -1) as string);
    return this.#reply(L, -1);
  }

  /** Lua to Redis: a number an integer, a table an array (to its first nil), false nil. */
  #reply(L: unknown, index: number): Reply {
    if (lua.lua_istable(L, index)) {
      const items: Reply[] = [];
      for (let i = 1; ; i++) {
        lua.lua_rawgeti(L, index, i);
        if (lua.lua_isnil(L, -1)) {
          lua.lua_pop(L, 1);
          return items;
        }
        items.push(this.#reply(L, -1));
        lua.lua_pop(L, 1);
      }
    }
    if (lua.lua_isboolean(L, index) || lua.lua_isnil(L, index)) return null;
    if (lua.lua_type(L, index) === lua.LUA_TNUMBER) return Math.trunc(lua.lua_tonumber(L, index) as number);
    return lua.lua_tojsstring(L, index) as string;
  }

  #command([name, key, ...rest]: string[]): Reply {
    const hash = this.hashes.get(key!) ?? new Map<string, string>();
    switch (name!.toUpperCase()) {
      case "HGET":
        return hash.get(rest[0]!) ?? null;
      case "HSET":
        for (let i = 0; i < rest.length; i += 2) hash.set(rest[i]!, rest[i + 1]!);
        this.hashes.set(key!, hash);
        return rest.length / 2;
      case "PEXPIRE":
        return this.hashes.has(key!) ? 1 : 0;
      case "TIME": {
        const ms = Date.now() + this.clockAheadMs;
        return [String(Math.floor(ms / 1000)), String((ms % 1000) * 1000)];
      }
      default:
        throw new Error(`ERR unknown command '${name}'`);
    }
  }
}
