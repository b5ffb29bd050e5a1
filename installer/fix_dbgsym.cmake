# SPDX-License-Identifier: MIT
# CPack post-build step: mend the .ddeb (see fix_dbgsym.sh).
foreach(file IN LISTS CPACK_PACKAGE_FILES)
  if(file MATCHES "\\.ddeb$")
    execute_process(COMMAND ${CMAKE_CURRENT_LIST_DIR}/fix_dbgsym.sh ${file} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "fix_dbgsym.sh failed on ${file}")
    endif()
  endif()
endforeach()
