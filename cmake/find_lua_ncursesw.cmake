# Lua 5.4 and ncursesw under the pkg-config names distributions give them
# (Debian and Ubuntu: lua5.4, ncursesw; FreeBSD: lua-5.4; Fedora and Arch:
# lua; some ship lua54, or a wide-character ncurses named plain "ncurses").
# Defines the imported targets PkgConfig::LUA and PkgConfig::NCURSESW.

pkg_search_module(LUA QUIET IMPORTED_TARGET lua5.4 lua-5.4 lua54 lua)
if(NOT LUA_FOUND)
  message(FATAL_ERROR
    "Lua 5.4 not found: pkg-config knows none of lua5.4, lua-5.4, lua54, lua. "
    "On Debian or Ubuntu: apt-get install liblua5.4-dev (or set PKG_CONFIG_PATH "
    "to the folder of your Lua 5.4's .pc file).")
endif()
# plain "lua" may be any release, and the lesson sandbox is written against
# 5.4 (lx_sandbox.c calls lua_setwarnf, new in 5.4): refuse another
if(NOT LUA_VERSION VERSION_GREATER_EQUAL 5.4 OR NOT LUA_VERSION VERSION_LESS 5.5)
  message(FATAL_ERROR
    "kvtutor needs Lua 5.4, but pkg-config's ${LUA_MODULE_NAME} is ${LUA_VERSION}. "
    "On Debian or Ubuntu: apt-get install liblua5.4-dev (its lua5.4 is found first).")
endif()
message(STATUS "Lua: ${LUA_MODULE_NAME} ${LUA_VERSION}")

pkg_search_module(NCURSESW QUIET IMPORTED_TARGET ncursesw ncurses)
if(NOT NCURSESW_FOUND)
  message(FATAL_ERROR
    "ncursesw not found: pkg-config knows neither ncursesw nor ncurses. "
    "On Debian or Ubuntu: apt-get install libncurses-dev.")
endif()
message(STATUS "ncurses: ${NCURSESW_MODULE_NAME} ${NCURSESW_VERSION}")
