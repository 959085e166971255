# SPDX-License-Identifier: MIT
# A man page from a program's --help, at build time, so that the page never disagrees with the program:
#   cmake -DPROGRAM=path -DNAME=stencilscope-cli -DSUMMARY="..." -DSYNOPSIS="COMMAND [OPTIONS]"
#         -DVERSION=0.1.0 -DSEE_ALSO=stencilscope -DOUTPUT=stencilscope-cli.1.gz -P help-to-man.cmake
# The help text goes into the DESCRIPTION as it is (no-fill), with roff's special characters escaped;
# the page is compressed with gzip -9n (no name or time stamp in the header: reproducible).
foreach(var PROGRAM NAME SUMMARY SYNOPSIS VERSION OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "help-to-man.cmake: ${var} is not set")
  endif()
endforeach()

execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0 OR help STREQUAL "")
  message(FATAL_ERROR "help-to-man.cmake: ${PROGRAM} --help failed (${status}): ${errors}")
endif()

# roff: a backslash is \e, a minus sign (options) is \-, a line may not begin with . or ' (\& before).
function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(REGEX REPLACE "\n+$" "" help "${help}")
string(REGEX REPLACE "\n\n+" "\n\n" help "${help}")
roff_escape("${help}" body)
# Blank lines inside no-fill text would be read as paragraph breaks by some formatters: .sp instead.
string(REPLACE "\n\n" "\n.sp\n" body "${body}")
roff_escape("${NAME}" name)
roff_escape("${SUMMARY}" summary)
roff_escape("${SYNOPSIS}" synopsis)
string(TOUPPER "${name}" title)

set(page ".TH \"${title}\" 1 \"\" \"${NAME} ${VERSION}\" \"User Commands\"
.SH NAME
${name} \\- ${summary}
.SH SYNOPSIS
.B ${name}
${synopsis}
.SH DESCRIPTION
The text below is the program's own
.BR \\-\\-help .
.PP
.nf
${body}
.fi
")
if(DEFINED SEE_ALSO AND NOT SEE_ALSO STREQUAL "")
  roff_escape("${SEE_ALSO}" see_also)
  string(APPEND page ".SH SEE ALSO\n.BR ${see_also} (1)\n")
endif()
string(APPEND page ".SH FILES\n/usr/share/doc/stencilscope/USER_GUIDE.md: the user guide.\n")

string(REGEX REPLACE "\\.gz$" "" plain "${OUTPUT}")
file(WRITE "${plain}" "${page}")
execute_process(COMMAND gzip -9nf "${plain}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help-to-man.cmake: gzip failed on ${plain}")
endif()
