function(cei_add_application)
endfunction()
