# Turns a text file into a C string, so that the report's CSS and JavaScript
# stay real files (cli/report_assets/) and the page still needs no network.
# cmake -DIN=report.css -DOUT=report_css.c -DNAME=rp_css -P embed.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cli/embed.cmake: edit that file. */\nconst char ${NAME}[] = {${body} 0x00};\n")
