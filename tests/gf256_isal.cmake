# The ISA-L cross-check: gemmkit's coefficient tables, matrices, inverses and
# parity must equal ISA-L's byte for byte. Built only where ISA-L is
# installed (Debian/Ubuntu: libisal-dev).
find_path(GK_ISAL_INCLUDE_DIR isa-l.h)
find_library(GK_ISAL_LIBRARY isal)
if(GK_ISAL_INCLUDE_DIR AND GK_ISAL_LIBRARY)
  gk_add_test(test_rs_isal)
  target_include_directories(test_rs_isal PRIVATE ${GK_ISAL_INCLUDE_DIR})
  target_link_libraries(test_rs_isal PRIVATE ${GK_ISAL_LIBRARY})
else()
  message(STATUS "ISA-L not found: the ISA-L cross-check test_rs_isal is skipped")
endif()
