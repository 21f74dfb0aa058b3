// test_main.cpp: Catch2's main, and nothing else.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
