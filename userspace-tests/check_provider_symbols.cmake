# Checks the dynamic symbol table of the provider module (run by ctest):
#  - the PABI registration symbol is bound to IBVERBS_PRIVATE_34,
#  - every libibverbs symbol it uses is versioned (a mismatched library then
#    fails to load it instead of crashing),
#  - its only export is verbs_provider_mrc.
if(NOT READELF OR NOT MODULE)
    message(FATAL_ERROR "usage: cmake -DREADELF=... -DMODULE=... -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

execute_process(COMMAND "${READELF}" --dyn-syms --wide "${MODULE}"
    OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf failed on ${MODULE}")
endif()

string(REPLACE "\n" ";" lines "${syms}")
set(failures "")
set(found_register FALSE)
foreach(line IN LISTS lines)
    # Num: Value Size Type Bind Vis Ndx Name
    if(NOT line MATCHES "^ *[0-9]+: +[0-9a-f]+ +[0-9]+ +([A-Z]+) +([A-Z]+) +[A-Z]+ +([A-Z0-9]+) +([^ ]+)")
        continue()
    endif()
    set(type "${CMAKE_MATCH_1}")
    set(bind "${CMAKE_MATCH_2}")
    set(ndx "${CMAKE_MATCH_3}")
    set(name "${CMAKE_MATCH_4}")
    if(name MATCHES "^verbs_register_driver_34@IBVERBS_PRIVATE_34")
        set(found_register TRUE)
    endif()
    if(ndx STREQUAL "UND")
        if(name MATCHES "^(verbs_|_verbs_|ibv_)" AND NOT name MATCHES "@IBVERBS_")
            list(APPEND failures "unversioned libibverbs reference: ${name}")
        endif()
    elseif(bind STREQUAL "GLOBAL" OR bind STREQUAL "WEAK")
        if(NOT name MATCHES "^verbs_provider_mrc(@|$)" AND NOT type STREQUAL "NOTYPE")
            list(APPEND failures "unexpected export: ${name}")
        endif()
    endif()
endforeach()

if(NOT found_register)
    list(APPEND failures "verbs_register_driver_34@IBVERBS_PRIVATE_34 not referenced")
endif()
if(failures)
    list(JOIN failures "\n  " text)
    message(FATAL_ERROR "provider symbol check failed:\n  ${text}")
endif()
message(STATUS "provider symbols OK")
